// split-sms ships no type declarations; this is the part of its API the benchmark uses.
declare module 'split-sms' {
  interface SplitPart {
    content: string;
    length: number;
    bytes: number;
  }
  interface SplitResult {
    characterSet: 'GSM' | 'Unicode';
    parts: SplitPart[];
    bytes: number;
    length: number;
    remainingInPart: number;
  }
  const splitter: { split(message: string, options?: { summary?: boolean }): SplitResult };
  export default splitter;
}
