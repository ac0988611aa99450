#!/usr/bin/env node
// The `smsv4` binary: runs the CLI on the process's streams and sets the exit status.
import { readFileSync } from 'node:fs';
import { createProcessIo } from './cli-io.js';
import { runCli } from './run-cli.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

process.exitCode = await runCli(process.argv.slice(2), createProcessIo(), { version });
