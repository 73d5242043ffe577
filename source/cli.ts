#!/usr/bin/env node
// The ES module entry (dist/bundle/cli.js): the chat screen's, since Ink's
// layout engine loads with a top-level await that a CommonJS bundle cannot
// hold. bin/i.js runs cli-headless.ts's bundle for every other run.
import {main} from './cli-main.js';

await main(process.argv.slice(2));
