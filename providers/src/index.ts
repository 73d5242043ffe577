/**
 * i-providers: the provider package that ships with `i` (docs/providers.md).
 * DeepSeek, OpenRouter, Gemini, Groq, Mistral, xAI, a local Ollama or
 * llama.cpp server and a generic OpenAI-compatible proxy, each a module of
 * ./modules whose requests run on the host's own client (`io.completions`);
 * this root is the package's only `register`.
 */
import type {ExtensionApi} from 'i-agent/extension';
import {registerModules} from './bridge.js';
import {deepseek} from './modules/deepseek.js';
import {gemini} from './modules/gemini.js';
import {groq} from './modules/groq.js';
import {llamaCpp} from './modules/llama-cpp.js';
import {mistral} from './modules/mistral.js';
import {ollama} from './modules/ollama.js';
import {openrouter} from './modules/openrouter.js';
import {proxy} from './modules/proxy.js';
import {xai} from './modules/xai.js';

/** The extension API major this was written for. */
export const apiVersion = '1';

/** In the order `--list-models` shows them. */
export const modules = [deepseek, openrouter, gemini, groq, mistral, xai, ollama, llamaCpp, proxy] as const;

/** Declares and registers only: no flag (the host refuses an unknown flag before loading this package), no event handler, no I/O. */
export default function register(api: ExtensionApi): void {
	registerModules(api, modules);
}
