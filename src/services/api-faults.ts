/**
 * The API fault lab of one programme (docs/api-faults.md: The API fault lab): its rules, kept in memory — they
 * are set at every start with `--api-faults`, and stay through a reset as the programme's other
 * settings do — with what each has left and how many requests each has faulted, and the random
 * stream the draws come from (the rules' own seed, else the programme's).
 */
import type { Core } from './core.js';
import { type ApiFault, type ApiFaultRules, type ShownApiFaults } from '../domain/api-faults.js';
import { pickRule, type ApiRequest } from '../domain/api-fault-matching.js';
import { ruleView, type ApiFaultsView } from '../wire/api-faults.js';
import { seededRandom, type Random, type RandomState } from '../kernel/ids.js';

/** Where the lab's draws stand: the programme's stream for it, and the rules' own seed's while they have one. */
export interface ApiFaultDraws {
  programme?: RandomState | undefined;
  rules?: RandomState | undefined;
}

export interface MetFault {
  fault: ApiFault;
  /** Its place in the rules, from 1. */
  rule: number;
}

export function createApiFaults(core: Core) {
  const programmeRandom = core.random.fork('api faults');
  let rules: ApiFaultRules = { rules: [] };
  let hits: number[] = [];
  let random: Random = programmeRandom;

  const view = (): ApiFaultsView => ({ rules: rules.rules.map((rule, i) => ruleView(rule, hits[i]!)), ...(rules.seed !== undefined && { seed: rules.seed }) });

  return {
    /** Whether any rule is set: the one check a request pays when none is. */
    active: (): boolean => rules.rules.length > 0,
    view,
    set(next: ApiFaultRules): ApiFaultsView {
      rules = next;
      hits = next.rules.map(() => 0);
      random = next.seed === undefined ? programmeRandom : seededRandom(next.seed);
      return view();
    },
    clear(): void {
      rules = { rules: [] };
      hits = [];
      random = programmeRandom;
    },
    /** The fault a request meets, counted against its rule's times; undefined for none. */
    meet(request: ApiRequest): MetFault | undefined {
      const i = pickRule(rules.rules, request, random.float);
      if (i === undefined) return undefined;
      const rule = rules.rules[i]!;
      if (rule.remaining !== undefined) rule.remaining--;
      hits[i]!++;
      return { fault: rule.fault, rule: i + 1 };
    },
    /** A draw for a latency range. */
    draw: (): number => random.float(),
    /** Where the draws stand, for a snapshot (which keeps the rules as `view` shows them). */
    draws: (): ApiFaultDraws => ({ programme: programmeRandom.state(), rules: random === programmeRandom ? undefined : random.state() }),
    /** The rules as they stand and what each has faulted, copied: what `restore` puts back. */
    kept: (): ShownApiFaults => ({ rules: structuredClone(rules), hits: [...hits] }),
    /** The rules, what they have left and faulted, and the draws, as a snapshot kept them. */
    restore({ rules: kept, hits: counts }: ShownApiFaults, draws: ApiFaultDraws): void {
      rules = kept;
      hits = counts;
      programmeRandom.restore(draws.programme);
      random = kept.seed === undefined ? programmeRandom : seededRandom(kept.seed);
      if (random !== programmeRandom && draws.rules) random.restore(draws.rules);
    },
  };
}

export type ApiFaults = ReturnType<typeof createApiFaults>;
