import type { Command } from 'commander';

/** Adds the estimator's flags (see `estimateFlags`); `operatorMaxParts: false` leaves `--max-parts` to the command. */
export function addEstimateOptions(command: Command, { hex = true, operatorMaxParts = true }: { hex?: boolean; operatorMaxParts?: boolean } = {}): Command {
  if (hex) {
    command
      .option('-t, --type <type>', 'content type: text, hexEncodedText or binary', 'text')
      .option('-c, --charset <charset>', 'charset of hexEncodedText content: GSM, Latin-1, UTF-8 or UTF-16')
      .option('--udh', 'hex content starts with a user data header')
  }
  command
    .option('--national <languages>', 'national language shift tables the platform may use (comma-separated): turkish, spanish, portuguese, bengali, gujarati, hindi, kannada, malayalam, oriya, punjabi, tamil, telugu, urdu')
    .option('--graphemes', 'never split a grapheme cluster (emoji sequence, letter and its marks) across parts')
    .option('--reference-bits <bits>', 'concatenation reference: 8 (6-octet header, default) or 16 (7-octet header)')
    .option('--text-length <septets>', "operator's single-part GSM length (lookup textLength)")
    .option('--unicode-length <units>', "operator's single-part UCS-2 length (lookup unicodeLength)")
    .option('--binary-length <octets>', "operator's single-part binary length (lookup binaryLength)");
  if (operatorMaxParts) command.option('--max-parts <parts>', 'most parts the operator takes');
  return command;
}
