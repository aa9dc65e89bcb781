// What a pipeline has to tell the person running a command, on stderr (data goes to stdout).
export const notice = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
