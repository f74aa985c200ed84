/** Spec section 9: every dialog is 400 px wide. */
export const DIALOG_WIDTH = 400;
