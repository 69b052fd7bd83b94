import { describe, expect, it } from 'vitest';
import { Journal, type JournalEntry } from './journal.js';

const entry = (n: number): JournalEntry => ({
  requestId: `r${n}`,
  time: '2026-03-01T09:00:00.000Z',
  method: 'GET',
  path: `/v1/customers/${n}`,
  status: 200,
  durationMs: 1,
  warnings: [],
  replayed: false,
});
const ids = (journal: Journal) => journal.list().map((e) => e.requestId);

describe('the request journal', () => {
  it('is put back as a snapshot listed it, newest first, and goes on from there within its size', () => {
    const journal = new Journal(3);
    const heard: string[] = [];
    journal.subscribe({ added: (e) => heard.push(e.requestId), cleared: () => heard.push('cleared') });
    journal.restore([entry(2), entry(1)]);
    expect(ids(journal)).toEqual(['r2', 'r1']);
    journal.add(entry(3));
    journal.add(entry(4));
    expect(ids(journal)).toEqual(['r4', 'r3', 'r2']);
    // More entries than it keeps: the newest.
    journal.restore([entry(9), entry(8), entry(7), entry(6)]);
    expect(ids(journal)).toEqual(['r9', 'r8', 'r7']);
    journal.add(entry(10));
    expect(ids(journal)).toEqual(['r10', 'r9', 'r8']);
    expect(heard).toEqual(['cleared', 'r3', 'r4', 'cleared', 'r10']);
  });
});
