/**
 * GET /_sandbox/report (docs/go-live.md: Before you go live): the go-live report — checks with
 * evidence, and coverage — of the programme the request names, or with `?programmes=` of several
 * together (docs/go-live.md: A report over a whole test run): `all`, every programme with records,
 * the deleted ones the sandbox kept included, or a list of ids.
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
  control: Api,
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
      responses: { 200: jsonResponse(Report), 400: problem('`programmes` is not "all" nor a list of ids'), 404: problem('A programme named is not there') },
    },
    (c, { query }) => {
      const wanted = query.programmes;
      const records =
        wanted === undefined
          ? [recordsOf(c.get('programme').id)]
          : wanted === 'all'
            ? [...programmes.list().map((p) => live(p.id)), ...programmes.ended.list()].filter((r) => r.requests.length > 0 || r.attempts.length > 0)
            : wanted.map(recordsOf);
      return answer(c, goLiveReport({ verify: config.verify, operations, programmes: records, now: clock.wall() }));
    },
  );
}
