/** A model-facing tool a module registers: only these three fields reach the model. */
export interface ModuleTool {
	name: string;
	description: string;
	parameters: Record<string, unknown>;
}
