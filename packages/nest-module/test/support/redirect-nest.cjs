// Preload (`node -r`): resolves Nest and its companions from the directory in NEST_MODULES_FROM, so
// that the built package is booted against another Nest major (the Nest 10 run).
'use strict';
const Module = require('node:module');
const from = process.env.NEST_MODULES_FROM;
if (from) {
  const original = Module._resolveFilename;
  const redirected = /^(@nestjs\/[^/]+|reflect-metadata|rxjs)(\/.*)?$/;
  Module._resolveFilename = function resolve(request, parent, ...rest) {
    if (redirected.test(request)) return original.call(this, request, { ...parent, paths: Module._nodeModulePaths(from) }, ...rest);
    return original.call(this, request, parent, ...rest);
  };
}
