/**
 * One finding of a linter, in the form both tools' reports are read into.
 * @module
 */

export interface LintFinding {
  tool: 'redocly' | 'spectral';
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  /** `file:line:col`, the file relative to the project root (the working directory of the run). */
  location: string;
}
