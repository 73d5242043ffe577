// ink-text-input behind a module of our own: the bundle gives it a chunk of
// this name, loaded by the first input dialog (ExtensionDialog.tsx), which
// test/tui-e2e/dialogs.test.ts watches for.
export {default} from 'ink-text-input';
