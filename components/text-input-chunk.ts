// ink-text-input behind a module of our own: the bundle gives it a chunk of
// this name, loaded by the first widget with a text field (use-text-input.ts),
// which test/tui-e2e/dialogs.test.ts watches for.
export {default} from 'ink-text-input';
