import { describe, expect, it } from 'vitest';
import { ownerFor, ownerOf, ownerVerdict, withOwner } from '../../../runtime/owner/index.js';
import { startedState } from '../../../runtime/state/index.js';

const now = new Date('2030-01-01T00:00:00.000Z');
const run = startedState('session', new Date('2029-12-31T00:00:00.000Z'));
const ownedBy = (session: string) => withOwner(run, ownerFor(session, 'start', now));

describe('ownerVerdict: who conducts a session run', () => {
  it('the owner conducts; any other session is a bystander that sees who owns it', () => {
    expect(ownerVerdict(ownedBy('a'), 'a', now)).toEqual({ type: 'conduct', claim: null });
    expect(ownerVerdict(ownedBy('a'), 'b', now)).toEqual({ type: 'bystander', owner: { session: 'a', since: now.toISOString(), via: 'start' } });
  });

  it('an unowned run is claimed by the first session that asks', () => {
    expect(ownerVerdict(run, 'b', now)).toEqual({ type: 'conduct', claim: { session: 'b', since: now.toISOString(), via: 'claim' } });
  });

  it("the owner's rolled context window passes the run to the fresh session, and only that one", () => {
    expect(ownerVerdict(ownedBy('a'), 'b', now, 'a')).toEqual({ type: 'conduct', claim: { session: 'b', since: now.toISOString(), via: 'window' } });
    expect(ownerVerdict(ownedBy('a'), 'b', now, 'z').type).toBe('bystander');
  });

  it('without a session id nobody can be told apart: conduct, claim nothing', () => {
    expect(ownerVerdict(ownedBy('a'), null, now)).toEqual({ type: 'conduct', claim: null });
  });

  it('a malformed owner record is no owner; a blank session id makes none', () => {
    for (const owner of [42, 'a', { session: '' }, { session: 'a' }, []]) expect(ownerOf({ ...run, owner } as never)).toBeNull();
    expect(ownerOf({ ...run, owner: { session: 'a', since: 'x', via: 'elsewhere' } } as never)).toEqual({ session: 'a', since: 'x', via: 'claim' });
    expect(ownerFor('  ', 'start', now)).toBeNull();
    expect(ownerFor(undefined, 'start', now)).toBeNull();
  });
});
