/**
 * GET /_sandbox/report (docs/go-live.md: Before you go live): the go-live report of the programme the
 * request names — checks with evidence, and coverage — from its journal and its deliveries.
 */
import type { Hono } from 'hono';
import type { Config } from '../../config.js';
import type { DeclaredOperation } from '../../domain/api-faults.js';
import { goLiveReport } from '../../domain/report.js';
import type { AppEnv } from '../env.js';

export function controlReportRoutes(control: Hono<AppEnv>, config: Config, operations: readonly DeclaredOperation[]): void {
  control.get('/report', (c) => {
    const { journal, services } = c.get('programme');
    return c.json(goLiveReport({ verify: config.verify, operations, requests: journal.list(), ...services.readiness.records() }));
  });
}
