/**
 * Nothing, in the ES module bundle. In the one-file headless bundle
 * (dist/bundle/headless.cjs), which cannot hold the chat screen, this module
 * is scripts/headless-tui.cjs instead: awaiting its import hands the run to
 * the ES module bundle (run-cli.ts `loadChatScreen`).
 */
export {};
