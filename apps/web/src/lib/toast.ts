/** Spec sections 8 and 9: an error toast stays 5 s, any other message 1.5 s. */
export const ERROR_SECONDS = 5;
export const MESSAGE_SECONDS = 1.5;

// antd's message is loaded on the first toast only, so that the public pages' entry stays free of antd.
const loadMessage = () => import('./antd-message.tsx');

export function showError(text: string, seconds: number): void {
  void loadMessage().then(({ message }) => message.error(text, seconds));
}

export function showSuccess(text: string, seconds: number): void {
  void loadMessage().then(({ message }) => message.success(text, seconds));
}
