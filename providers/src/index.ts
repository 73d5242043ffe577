/**
 * i-providers: the provider package that ships with `i` (docs/providers.md).
 * DeepSeek, OpenRouter, a llama.cpp server and a generic OpenAI-compatible
 * proxy, each a module of ./modules over one shared streaming client; this
 * root is the package's only `register`.
 */
import type {ExtensionApi} from 'i-agent/extension';
import {registerModules} from './bridge.js';
import {deepseek} from './modules/deepseek.js';
import {llamaCpp} from './modules/llama-cpp.js';
import {openrouter} from './modules/openrouter.js';
import {proxy} from './modules/proxy.js';

/** The extension API major this was written for. */
export const apiVersion = '1';

export const modules = [deepseek, openrouter, llamaCpp, proxy] as const;

/** Declares and registers only: no flag (the host refuses an unknown flag before loading this package), no event handler, no I/O. */
export default function register(api: ExtensionApi): void {
	registerModules(api, modules);
}
