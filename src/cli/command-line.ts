/**
 * The command lines the CLI prints as hints ("run `boardkit bundle --root …`"): the command with the
 * options the user gave, so running the hint as printed does what they meant.
 * @module
 */

/** Quotes an argument for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** `boardkit <command> [--flag value …]`, leaving out the options the user did not give. */
export function commandLine(command: string, options: Record<string, string | true | undefined> = {}): string {
  const words = Object.entries(options).flatMap(([flag, value]) =>
    value === undefined ? [] : value === true ? [flag] : [flag, value],
  );
  return ['boardkit', command, ...words].map(shellWord).join(' ');
}
