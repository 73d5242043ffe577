import {close, fstat, fsync, link, open, read, rename, rm, stat, write, writeFile} from 'node:fs';
import {promisify} from 'node:util';

// node:fs's calls as promises, made from its callback forms rather than
// taken from node:fs/promises, for the modules the official host loads (the
// state files' reading and atomic writes, their locks, the skills' files).
// Loading node:fs/promises also loads node's readline and file-watching
// modules, and the host's start-up snapshot (workers/host/official-snapshot.ts)
// holds every module the host loads: they were 0.4 MB of the blob and about
// 0.9 ms of every host start on Node 24. A file descriptor has no owner that
// closes it: each caller closes its own, once, on every path.

export const openFile = promisify(open);
export const closeFile = promisify(close);
export const statPath = promisify(stat);
export const statFile = promisify(fstat);
export const readFromFile = promisify(read);
export const writeToFile = promisify(write);
/** All of a string or bytes, from the descriptor's current position. */
export const writeWholeFile = promisify(writeFile);
export const syncFile = promisify(fsync);
export const linkPath = promisify(link);
export const renamePath = promisify(rename);
export const removePath = promisify(rm);
