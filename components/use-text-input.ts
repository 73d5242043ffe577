import {useEffect, useState, type ComponentType} from 'react';

export type TextInputProps = {value: string; placeholder?: string; mask?: string; focus?: boolean; onChange(value: string): void; onSubmit(value: string): void};

/**
 * ink-text-input is loaded when the first widget with a text field opens
 * (an input dialog, the picker), not with the screen: most sessions never
 * show one, and the first frame does not wait for it.
 */
let textInput: ComponentType<TextInputProps> | undefined;
let loading: Promise<ComponentType<TextInputProps>> | undefined;
export async function loadTextInput(): Promise<ComponentType<TextInputProps>> {
	loading ??= import('./text-input-chunk.js').then(module => {
		textInput = module.default as ComponentType<TextInputProps>;
		return textInput;
	});
	return loading;
}

/** ink-text-input when it is loaded already: a widget shown after the first one draws its field in its first frame. */
export function loadedTextInput(): ComponentType<TextInputProps> | undefined {
	return textInput;
}

/** ink-text-input for a widget: at once when it is loaded already, else undefined until the load this starts ends. */
export function useTextInput(): ComponentType<TextInputProps> | undefined {
	const [TextInput, setTextInput] = useState(() => textInput);
	useEffect(() => {
		if (TextInput) return;
		let live = true;
		loadTextInput().then(
			loaded => live && setTextInput(() => loaded),
			() => {},
		);
		return () => {
			live = false;
		};
	}, [TextInput]);
	return TextInput;
}
