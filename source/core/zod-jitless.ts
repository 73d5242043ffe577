/**
 * zod without code generation. Its object parsers otherwise compile a
 * function per schema at their first parse (`new Function`), which pays in
 * a process that parses the same shapes many times and costs one that
 * parses each a few times: the official host, and every run of the
 * headless bundle (`i -p`, line mode, commands), where code made by `new
 * Function` is also beyond the code cache bin/code-cache.js keeps, so each
 * run compiled it again.
 * The chat screen, which lives long, keeps zod's default. Imported first,
 * before any schema exists: the choice is read when a schema is made.
 */
import {config} from 'zod/mini';

config({jitless: true});
