/**
 * The delivery lab of one programme (docs/webhooks.md: Webhooks → The delivery lab): the faults in force
 * for all its subscriptions or for one, and its pauses — kept in the database (on the programme's
 * row and on each webhook's) and in memory, where the dispatcher reads them for every attempt at
 * no cost — and the delivery controls: pause and resume, retry a delivery now, exhaust one.
 *
 * A paused delivery is a pending one without a due time: `pausedDueAt` keeps the time it was due,
 * and resuming restores it. New deliveries of a paused subscription are queued paused.
 */
import { and, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Core } from './core.js';
import { fail } from '../domain/errors.js';
import { hasFaults, type Faults } from '../domain/webhook-faults.js';
import { exhausted, heldAfterResume, releasesHolds, retried, spendFail, type FaultSource } from '../domain/webhook-attempts.js';
import { deliveries, programmes, webhooks } from '../store/schema.js';
import { released } from '../webhooks/delivery-rows.js';
import { deliverySummary } from './outbox-view.js';
import { faultsView, type DeliveryAnswer, type FaultsAnswer, type LabScope, type PauseAnswer } from '../wire/delivery-lab.js';

export type { DeliveryAnswer, FaultsAnswer, LabScope, PauseAnswer };

export function createDeliveryLab(core: Core, { kick }: { kick: () => void }) {
  const { store, clock, programme } = core;
  const { db } = store;
  const mine = eq(deliveries.programmeId, programme);
  const ofWebhook = (webhookId: string | undefined) => (webhookId === undefined ? mine : and(mine, eq(deliveries.webhookId, webhookId))!);
  let programmeFaults: Faults | undefined;
  let pausedAll = false;
  const ownFaults = new Map<string, Faults>();
  const pausedHooks = new Set<string>();
  let active = false;

  const refresh = () => {
    active = hasFaults(programmeFaults) || [...ownFaults.values()].some(hasFaults);
  };

  const load = () => {
    const row = db.select({ faults: programmes.webhookFaults, paused: programmes.webhooksPaused }).from(programmes).where(eq(programmes.id, programme)).get();
    programmeFaults = row?.faults ?? undefined;
    pausedAll = row?.paused ?? false;
    ownFaults.clear();
    pausedHooks.clear();
    const hooks = db
      .select({ id: webhooks.id, faults: webhooks.faults, paused: webhooks.paused })
      .from(webhooks)
      .where(and(eq(webhooks.programmeId, programme), or(isNotNull(webhooks.faults), eq(webhooks.paused, true))))
      .all();
    for (const hook of hooks) {
      if (hook.faults) ownFaults.set(hook.id, hook.faults);
      if (hook.paused) pausedHooks.add(hook.id);
    }
    refresh();
  };
  load();

  const requireWebhook = (id: string) => {
    if (
      !db
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(and(eq(webhooks.programmeId, programme), eq(webhooks.id, id)))
        .get()
    )
      fail('webhook_not_found', `no webhook with id ${id}`);
  };
  const saveProgramme = (values: Partial<typeof programmes.$inferInsert>) => db.update(programmes).set(values).where(eq(programmes.id, programme)).run();
  const saveWebhook = (id: string, values: Partial<typeof webhooks.$inferInsert>) =>
    db
      .update(webhooks)
      .set(values)
      .where(and(eq(webhooks.programmeId, programme), eq(webhooks.id, id)))
      .run();

  /**
   * Lets go of the events held back for reordering in a scope whose faults no longer reorder: they
   * go now (recorded as delayed), or on resume if paused.
   */
  const releaseHolds = (where: SQL) => {
    db.update(deliveries)
      .set(released('delayed', clock.now()))
      .where(and(where, eq(deliveries.status, 'pending'), eq(deliveries.hold, 'holding')))
      .run();
  };

  const findDelivery = (id: string) =>
    db
      .select()
      .from(deliveries)
      .where(and(mine, eq(deliveries.id, id)))
      .get() ?? fail('delivery_not_found', `no delivery with id ${id}`);
  const answer = (row: typeof deliveries.$inferSelect): DeliveryAnswer => ({ ...deliverySummary(row), eventId: row.eventId });

  const lab = {
    get active(): boolean {
      return active;
    },
    faultsFor: (webhookId: string): Faults | undefined => ownFaults.get(webhookId) ?? programmeFaults,
    paused: (webhookId: string): boolean => pausedAll || pausedHooks.has(webhookId),

    spendFail(webhookId: string): void {
      const own = ownFaults.get(webhookId);
      const faults = own ?? programmeFaults;
      const spent = faults && spendFail(faults);
      if (!spent || spent === faults) return;
      if (own) {
        saveWebhook(webhookId, { faults: spent });
        ownFaults.set(webhookId, spent);
      } else {
        saveProgramme({ webhookFaults: spent });
        programmeFaults = spent;
      }
      refresh();
    },

    /** The faults in force for the programme's subscriptions, or for one of them. */
    faults(webhookId?: string): FaultsAnswer {
      if (webhookId === undefined) return { scope: 'programme', faults: faultsView(programmeFaults ?? {}) };
      requireWebhook(webhookId);
      const own = ownFaults.get(webhookId);
      return own ? { scope: 'webhook', faults: faultsView(own) } : { scope: 'programme', faults: faultsView(programmeFaults ?? {}) };
    },

    /** Replaces the faults of the programme, or of one subscription (which then ignores the programme's). */
    setFaults(webhookId: string | undefined, faults: Faults): FaultsAnswer {
      if (webhookId !== undefined) requireWebhook(webhookId);
      store.transaction(() => {
        if (webhookId === undefined) saveProgramme({ webhookFaults: Object.keys(faults).length ? faults : null });
        else saveWebhook(webhookId, { faults });
        if (releasesHolds(faults)) releaseHolds(ofWebhook(webhookId));
      });
      if (webhookId === undefined) programmeFaults = Object.keys(faults).length ? faults : undefined;
      else ownFaults.set(webhookId, faults);
      refresh();
      kick();
      return lab.faults(webhookId);
    },

    /** No faults for the programme; a subscription goes back to the programme's. */
    clearFaults(webhookId?: string): void {
      if (webhookId !== undefined) requireWebhook(webhookId);
      const after = webhookId === undefined ? undefined : programmeFaults;
      store.transaction(() => {
        if (webhookId === undefined) saveProgramme({ webhookFaults: null });
        else saveWebhook(webhookId, { faults: null });
        if (releasesHolds(after)) releaseHolds(ofWebhook(webhookId));
      });
      if (webhookId === undefined) programmeFaults = undefined;
      else ownFaults.delete(webhookId);
      refresh();
      kick();
    },

    /** Holds every pending delivery of the programme, or of one subscription, and those to come, until resumed. */
    pause(webhookId?: string): PauseAnswer {
      if (webhookId !== undefined) requireWebhook(webhookId);
      const held = store.transaction(() => {
        if (webhookId === undefined) saveProgramme({ webhooksPaused: true });
        else saveWebhook(webhookId, { paused: true });
        return db
          .update(deliveries)
          .set({ pausedDueAt: sql`${deliveries.nextAttemptAt}`, nextAttemptAt: null, updatedAt: clock.now() })
          .where(and(ofWebhook(webhookId), eq(deliveries.status, 'pending'), isNotNull(deliveries.nextAttemptAt)))
          .run().changes;
      });
      if (webhookId === undefined) pausedAll = true;
      else pausedHooks.add(webhookId);
      return { scope: webhookId === undefined ? 'programme' : 'webhook', ...(webhookId !== undefined && { webhookId }), paused: true, deliveries: held };
    },

    /** Lets the held deliveries go, each at the time it was due; a subscription stays held while the programme is paused. */
    resume(webhookId?: string): PauseAnswer {
      if (webhookId !== undefined) requireWebhook(webhookId);
      const stillHeld = heldAfterResume(webhookId, pausedAll, pausedHooks);
      const released = store.transaction(() => {
        if (webhookId === undefined) saveProgramme({ webhooksPaused: false });
        else saveWebhook(webhookId, { paused: false });
        if (stillHeld === undefined) return 0;
        return db
          .update(deliveries)
          .set({ nextAttemptAt: sql`${deliveries.pausedDueAt}`, pausedDueAt: null, updatedAt: clock.now() })
          .where(
            and(
              ofWebhook(webhookId),
              eq(deliveries.status, 'pending'),
              isNull(deliveries.nextAttemptAt),
              isNotNull(deliveries.pausedDueAt),
              sql`${deliveries.webhookId} NOT IN (SELECT value FROM json_each(${JSON.stringify(stillHeld)}))`,
            ),
          )
          .run().changes;
      });
      if (webhookId === undefined) pausedAll = false;
      else pausedHooks.delete(webhookId);
      kick();
      return {
        scope: webhookId === undefined ? 'programme' : 'webhook',
        ...(webhookId !== undefined && { webhookId }),
        paused: webhookId !== undefined && lab.paused(webhookId),
        deliveries: released,
      };
    },

    /** Makes a delivery's next attempt due now, or gives a discarded one one more attempt (retried). */
    retry(deliveryId: string): DeliveryAnswer {
      const row = findDelivery(deliveryId);
      const webhookExists = () =>
        db
          .select({ id: webhooks.id })
          .from(webhooks)
          .where(and(eq(webhooks.programmeId, programme), eq(webhooks.id, row.webhookId)))
          .get() !== undefined;
      const values = retried(row, clock.now(), webhookExists);
      db.update(deliveries)
        .set(values)
        .where(and(mine, eq(deliveries.id, deliveryId)))
        .run();
      kick();
      return answer({ ...row, ...values });
    },

    /** Discards a delivery now, as its 24 h of retries running out would: nothing more is sent. */
    exhaust(deliveryId: string): DeliveryAnswer {
      const row = findDelivery(deliveryId);
      const values = exhausted(row, clock.now());
      db.update(deliveries)
        .set(values)
        .where(and(mine, eq(deliveries.id, deliveryId)))
        .run();
      return answer({ ...row, ...values });
    },

    /** A webhook was deleted: its settings went with its row. */
    forget(webhookId: string): void {
      ownFaults.delete(webhookId);
      pausedHooks.delete(webhookId);
      refresh();
    },

    /** Reads the settings again (after a reset wiped the webhooks). */
    reload: load,
  } satisfies FaultSource & Record<string, unknown>;
  return lab;
}

export type DeliveryLab = ReturnType<typeof createDeliveryLab>;
