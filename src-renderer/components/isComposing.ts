/**
 * Whether a key press belongs to an input method still composing (Japanese, Chinese, Korean):
 * its Enter picks the candidate and must not send, add or rename. Safari reports the final
 * Enter with `isComposing` false but the IME's key code 229.
 */
export function isComposing(event: { nativeEvent: { isComposing?: boolean }; keyCode?: number }): boolean {
  return event.nativeEvent.isComposing === true || event.keyCode === 229;
}
