import type {Platform} from './api.js';
import {checkCatalogue, type CheckedCatalogueEntry} from './check-catalogue.js';

const platforms = new Set<Platform>(['linux', 'macos', 'windows']);

/** What `declare` took, copied as checked. */
export interface CheckedDeclaration {
	priority?: number;
	platforms?: Platform[];
	providers?: CheckedCatalogueEntry[];
}

export function checkDeclaration(value: unknown): CheckedDeclaration {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('declare takes an object: {priority?, platforms?, providers?}');
	const {priority, platforms: wanted, providers} = value as Record<string, unknown>;
	const declaration: CheckedDeclaration = {};
	// Copied as checked: an extension that changes its object later changes nothing here.
	if (providers !== undefined) declaration.providers = checkCatalogue(providers);
	if (priority !== undefined) {
		if (typeof priority !== 'number' || !Number.isFinite(priority)) throw new Error(`declare: priority must be a finite number (got ${JSON.stringify(priority)})`);
		declaration.priority = priority;
	}

	if (wanted !== undefined) {
		if (!Array.isArray(wanted) || !wanted.every(item => typeof item === 'string' && platforms.has(item as Platform))) {
			throw new Error(`declare: platforms must be a list of "linux", "macos", "windows" (got ${JSON.stringify(wanted)})`);
		}

		declaration.platforms = [...new Set(wanted as Platform[])];
	}

	return declaration;
}
