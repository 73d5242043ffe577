/** How a denied call's result begins, and what comes before the person's reason: a resumed session reads them back to show the call as denied (resumed-history.ts). */
export const APPROVAL_DENIED = 'The call was not run: approval was denied.';
export const DENIAL_REASON = ' Reason: ';

/** What the heads and ToolExecutionEnd are told of a call the turn's interrupt stopped (the model never sees it: the step is not saved). */
export const CANCELLED_OUTPUT = 'cancelled: the run was interrupted before the call finished';
