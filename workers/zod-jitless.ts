/**
 * zod without code generation, for the official host: its object parsers
 * otherwise compile a function per schema on first use (`new Function`),
 * which pays in a long-lived process and costs a worker that lives for one
 * `i -p` more than it saves. Imported first, before any schema exists (the
 * choice is read when a schema is made).
 */
import {config} from 'zod/mini';

config({jitless: true});
