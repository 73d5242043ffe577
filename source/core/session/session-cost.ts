import type {Session} from './session-store.js';
import {addCost, NO_COST, type Cost} from '../usage-cost.js';

/**
 * Each open session's cost so far, from the requests this process made for
 * it: keyed by the session object, so another session (/clear, a child's)
 * starts at nothing, and a closed one is forgotten with it. A resumed
 * session's earlier runs are not counted: their prices were never saved.
 */
const totals = new WeakMap<Session, Cost>();

/** Adds one request's cost to its session's and returns the new total. */
export function addSessionCost(session: Session, cost: Cost): Cost {
	const total = addCost(totals.get(session) ?? NO_COST, cost);
	totals.set(session, total);
	return total;
}
