// Public entry point of the smsv4 package (the `smsv4` binary is dist/cli.js). Every public symbol
// is exported here by name.

// --- running the CLI ---
export type { CliIo, CliOutput } from './cli-io.js';
export { createProcessIo } from './cli-io.js';
export type { RunCliOptions } from './run-cli.js';
export { runCli, createProgram } from './run-cli.js';
export type { CliErrorCode, CliErrorOptions } from './cli-error.js';
export { CliError, EXIT_STATUS } from './cli-error.js';
export type { ExitCode } from './exit-codes.js';
export { EXIT_CODES, exitCodesHelp, exitCodesMarkdown } from './exit-codes.js';
export type { ValidationSummary } from './validation/validation-report.js';
export { formatJunit, summarize } from './validation/validation-report.js';
export type { JsonSyntaxError } from './validation/json-location.js';
export { jsonSyntaxError } from './validation/json-location.js';
export type { NdjsonRecord } from './input/ndjson-records.js';
export { ndjsonRecords } from './input/ndjson-records.js';

// --- resources and validation ---
export type { ResourceName, ResourceDescriptor, SchemaKind } from './resources.js';
export { RESOURCES, RESOURCE_NAMES, resourceByName, isResourceName } from './resources.js';
export { detectFormat, detectResource } from './validation/detect-resource.js';
export type { ValidationProblemCode, ValidationError, ValidationResult, ValidatePayloadOptions } from './validation/validate-payload.js';
export { validatePayload } from './validation/validate-payload.js';

// --- contract documents ---
export type { JsonSchema, WireJsonSchemaOptions } from './contract/wire-json-schema.js';
export { wireJsonSchema } from './contract/wire-json-schema.js';
export type { JsonSchemaDocument } from './contract/json-schemas.js';
export { buildJsonSchema, buildJsonSchemas, JSON_SCHEMA_DIALECT } from './contract/json-schemas.js';
export type { OpenApiOptions } from './contract/openapi-document.js';
export { buildOpenApiDocument } from './contract/openapi-document.js';
export { DEFAULT_SANDBOX_URL } from '@smsv4/sandbox';
export type { SmsOperation } from './contract/error-responses.js';
export { SMS_OPERATION_ERRORS } from './contract/error-responses.js';

// --- templates ---
export type { LintProblemCode, LintProblem, LintResult, LintOptions, TemplateText } from './text/lint-templates.js';
export { lintTemplate, templatesOf, fillPlaceholders } from './text/lint-templates.js';
