// The session's assembly (setup-agent.ts) loads the observers from here; they belong to the turn's lifecycle.
export {observeCoreEvents} from '../lifecycle/observe-core-events.js';
