/**
 * `node --import e2e/desktop/register-electron.mjs out/main/main.js`: runs the BUILT desktop main under
 * plain Node with the electron stand-in. A synchronous resolve hook (module.registerHooks, same thread,
 * both import and require) maps the specifier `electron` to e2e/desktop/electron-module.ts: main.ts's
 * `import * as electron` and electron-store's `import electron from 'electron'` both get it. Without the
 * hook, Node would load the electron package's index.js, which tries to download the binary.
 */
import { registerHooks } from 'node:module';

const standInUrl = new URL('./electron-module.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standInUrl, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
