/** Bench output goes to stdout, one line at a time (progress lines, rows, summary tables). */
export const log = (s = ""): void => void process.stdout.write(s + "\n");
