import { readFile } from 'node:fs/promises';
import { parseOperatorTable, type OperatorTable, type SandboxAccount } from '@smsv4/sandbox';

/** The sandbox settings read from files. */
export interface FileSettings {
  readonly accounts?: readonly SandboxAccount[];
  readonly operators?: OperatorTable;
  /** The admin token read from `--admin-token-file`. */
  readonly adminToken?: string;
}

/** The outcome of {@link loadFileSettings}: the settings, or a message naming the file. */
export type FileSettingsResult = { ok: true; value: FileSettings } | { ok: false; error: string };

async function readJson(path: string, what: string): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { ok: false, error: `cannot read the ${what} file ${path}: ${(error as Error).message}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `the ${what} file ${path} is not JSON: ${(error as Error).message}` };
  }
}

/**
 * Reads the admin token file (its first line), the accounts file (a JSON array of accounts, or `{ "accounts": [...] }`) and the operator
 * table file (`{ "operators": [...] }`, checked against the sandbox's schema). The accounts are
 * checked in depth by `createSandbox`, which names the account at fault.
 */
export async function loadFileSettings({ accountsFile, operatorsFile, adminTokenFile }: { accountsFile?: string; operatorsFile?: string; adminTokenFile?: string }): Promise<FileSettingsResult> {
  let adminToken: string | undefined;
  if (adminTokenFile !== undefined) {
    try {
      adminToken = (await readFile(adminTokenFile, 'utf8')).split(/\r?\n/, 1)[0]?.trim() ?? '';
    } catch (error) {
      return { ok: false, error: `cannot read the admin token file ${adminTokenFile}: ${(error as Error).message}` };
    }
    if (adminToken === '') return { ok: false, error: `the admin token file ${adminTokenFile} is empty` };
  }
  let accounts: SandboxAccount[] | undefined;
  let operators: OperatorTable | undefined;
  if (accountsFile !== undefined) {
    const read = await readJson(accountsFile, 'accounts');
    if (!read.ok) return read;
    const list = Array.isArray(read.value) ? read.value : (read.value as { accounts?: unknown } | null)?.accounts;
    if (!Array.isArray(list) || list.length === 0) {
      return { ok: false, error: `the accounts file ${accountsFile} must hold a non-empty array of accounts, or an object with one in "accounts"` };
    }
    if (!list.every((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry))) {
      return { ok: false, error: `the accounts file ${accountsFile} must list objects ({ "accountId": ..., "password": ... })` };
    }
    accounts = list as SandboxAccount[];
  }
  if (operatorsFile !== undefined) {
    const read = await readJson(operatorsFile, 'operators');
    if (!read.ok) return read;
    const table = parseOperatorTable(read.value);
    if (!table.ok) return { ok: false, error: `the operators file ${operatorsFile} is not a valid operator table: ${table.error.description}` };
    operators = table.value;
  }
  return { ok: true, value: { ...(accounts ? { accounts } : {}), ...(operators ? { operators } : {}), ...(adminToken === undefined ? {} : { adminToken }) } };
}
