/**
 * English issue messages for zod/mini. Classic zod installs them itself;
 * zod/mini (used because classic zod cannot be tree-shaken out of the
 * bundle) installs none, and every message would read "Invalid input".
 * Messages are fixed when a parse fails, so every module that passes an
 * issue's `message` on imports this module.
 */
import {config} from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());
