/**
 * GET /_sandbox/report (docs/go-live.md: Before you go live): the go-live report of the programme the
 * request names — checks with evidence, and coverage — from its journal and its deliveries.
 */
import type { Config } from '../../config.js';
import type { DeclaredOperation } from '../../domain/api-fault-matching.js';
import { goLiveReport } from '../../domain/report.js';
import { Report } from '../../wire/report.js';
import { controlRoute } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { jsonResponse } from '../schemas.js';
import { answer } from '../answer.js';

export function controlReportRoutes(control: ControlPlane, config: Config, operations: readonly DeclaredOperation[]): void {
  controlRoute(
    control,
    {
      method: 'get',
      path: '/report',
      operationId: 'getReport',
      summary: 'The go-live report: checks with evidence, and coverage',
      tags: ['Report'],
      responses: { 200: jsonResponse(Report) },
    },
    (c) => {
      const { journal, services } = c.get('programme');
      return answer(c, goLiveReport({ verify: config.verify, operations, requests: journal.list(), ...services.report.records() }));
    },
  );
}
