/**
 * GET /_sandbox/report (docs/go-live.md: Before you go live): the go-live report — checks with
 * evidence, and coverage — of the programme the request names, or with `?programmes=` of several
 * together (docs/go-live.md: A report over a whole test run): `all`, every programme with records,
 * the deleted ones the sandbox kept included (with `since`, those made from then on), or a list of ids.
 */
import type { Deps } from '../../deps.js';
import type { DeclaredOperation } from '../../domain/api-fault-matching.js';
import { fail } from '../../domain/errors.js';
import { goLiveReport, type ProgrammeRecords } from '../../domain/report/index.js';
import { storedRecords } from '../../services/report.js';
import { Report, ReportQuery } from '../../wire/report.js';
import { controlRoute } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { jsonResponse, problem } from '../schemas.js';
import { answer } from '../answer.js';

export function controlReportRoutes(
  control: ControlPlane,
  deps: Pick<Deps, 'config' | 'programmes' | 'clock' | 'store'>,
  operations: readonly DeclaredOperation[],
): void {
  const { config, programmes, clock, store } = deps;

  /** A programme's records: its journal if it is in memory (one never used has none), its attempts and states from the database. */
  const live = (id: string): ProgrammeRecords => {
    const journal =
      programmes
        .loaded()
        .find((p) => p.id === id)
        ?.journal.list() ?? [];
    return { programme: id, requests: journal, ...storedRecords(store, id) };
  };
  const recordsOf = (id: string): ProgrammeRecords =>
    programmes.rowOf(id)
      ? live(id)
      : (programmes.ended.find(id) ?? fail('programme_not_found', `no programme with id ${id}, nor one deleted since the sandbox started`));

  controlRoute(
    control,
    {
      method: 'get',
      path: '/report',
      operationId: 'getReport',
      summary: 'The go-live report: checks with evidence, and coverage, of one programme or several together',
      tags: ['Report'],
      query: ReportQuery,
      responses: {
        200: jsonResponse(Report),
        400: problem('`programmes` is not "all" nor a list of ids, or `since` is not a date-time or comes without `programmes=all`'),
        404: problem('A programme named is not there'),
      },
    },
    (c, { query }) => {
      const { programmes: wanted, since } = query;
      if (since !== undefined && wanted !== 'all')
        fail('invalid_request', 'invalid query parameters: since goes with programmes=all', [{ path: 'since', message: 'goes with programmes=all' }]);
      const made = (at: number) => since === undefined || at >= since;
      const records =
        wanted === undefined
          ? [recordsOf(c.get('programme').id)]
          : wanted === 'all'
            ? [
                ...programmes
                  .list()
                  .filter((p) => made(Date.parse(p.createdAt)))
                  .map((p) => live(p.id)),
                ...programmes.ended
                  .list()
                  .filter((p) => made(p.createdAt))
                  .map((p) => p.records),
              ].filter((r) => r.requests.length > 0 || r.attempts.length > 0)
            : wanted.map(recordsOf);
      return answer(c, goLiveReport({ verify: config.verify, operations, programmes: records, now: clock.wall() }));
    },
  );
}
