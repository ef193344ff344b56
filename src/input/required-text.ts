/**
 * A text the service needs at least one visible character of (an envelope title: the contract's resources have one,
 * the service trims it and refuses an empty one). A blank value, often an unset shell variable, is refused here
 * with the option's name instead of the service's wording, before anything is sent.
 */
export function nonBlank(what: string): (text: string) => string {
  return (text) => {
    if (!text.trim()) throw new Error(`the ${what} is blank: give at least one character other than spaces, or leave the option out.`);
    return text;
  };
}
