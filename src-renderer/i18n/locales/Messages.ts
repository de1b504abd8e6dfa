/** A locale's message tree; completeness against English is checked by a unit test. */
export interface Messages {
  [key: string]: string | Messages;
}
