/** The built-in tools' names, in the order `createNativeTools` makes them: a module of its own, so checking a manifest loads no tool. */
export const nativeToolNames = ['read', 'write', 'edit', 'shell', 'glob', 'search', 'view_image', 'docs', 'delegate_task'] as const;

export type NativeToolName = (typeof nativeToolNames)[number];
