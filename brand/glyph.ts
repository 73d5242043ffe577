/**
 * The `i` mark, the one shape every renderer draws: a slab-serif i whose dot
 * is a block cursor, the thing a person watches in a terminal. `#` is the
 * stem (primary colour), `o` the dot (accent), `.` is empty. Eight rows so
 * the half-block renderers fill four terminal rows exactly.
 */
const rows = ['..oo..', '..oo..', '......', '####..', '..##..', '..##..', '..##..', '######'] as const;

export type Tone = 'primary' | 'accent';

/** One pixel of the mark: its tone, or null where it is empty. */
export type Pixel = Tone | null;

/** Blue reads on dark and light backgrounds alike; amber marks the cursor dot. */
export const colours: Readonly<Record<Tone, string>> = {primary: '#3D7BFD', accent: '#FFB020'};

const tones: Readonly<Record<string, Pixel>> = {'#': 'primary', o: 'accent', '.': null};

/** The mark as rows of pixels, top to bottom, left to right. */
export const glyph: ReadonlyArray<readonly Pixel[]> = rows.map(row => [...row].map(mark => tones[mark] ?? null));

export const glyphWidth = rows[0].length;
export const glyphHeight = rows.length;
