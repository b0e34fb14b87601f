/**
 * Small fixes to Swagger UI's own page for WCAG AA (axe in tests/e2e/api-docs.spec.ts): darker method badges and
 * texts for contrast, larger targets, and a name for its unlabelled server select. Served by the plugin from this
 * server (/api/docs/static/theme/…), so the CSP's `'self'` covers them.
 */
export const THEME_CSS = `
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d5fa8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17734a; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #a35200; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c11d1d; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f6e5c; }
.swagger-ui .info .title small { background: #4b5563; }
.swagger-ui .info .title small.version-stamp { background: #3f6212; }
.swagger-ui .info .title small pre { color: #fff; }
.swagger-ui .info a, .swagger-ui .info .url { color: #1d4ed8; }
.swagger-ui .btn.authorize { color: #17734a; border-color: #17734a; }
.swagger-ui .btn.authorize svg { fill: #17734a; }
.swagger-ui .opblock .opblock-summary-operation-id,
.swagger-ui .opblock .opblock-summary-path,
.swagger-ui .opblock .opblock-summary-description { color: #1f2937; }
.swagger-ui .opblock-tag small, .swagger-ui .opblock-tag small p { color: #374151; }
.swagger-ui .opblock-summary-control:focus-visible, .swagger-ui button:focus-visible, .swagger-ui a:focus-visible,
.swagger-ui select:focus-visible, .swagger-ui input:focus-visible, .swagger-ui .microlight:focus-visible { outline: 2px solid #1d4ed8; outline-offset: 2px; }
@media (max-width: 600px) { .swagger-ui .opblock .opblock-summary-operation-id { display: none; } }
`;

export const THEME_JS = `
// Swagger UI renders its server select without a name: give it one, whenever it is (re)rendered. Its code blocks
// (examples, schemas, answers) scroll when long, and a scrolling box must be reachable by keyboard (WCAG 2.1.1, axe
// scrollable-region-focusable): each gets a tab stop.
new MutationObserver(function () {
  var select = document.getElementById('servers');
  if (select && !select.hasAttribute('aria-label')) select.setAttribute('aria-label', 'Server');
  var blocks = document.querySelectorAll('.swagger-ui .microlight:not([tabindex])');
  for (var i = 0; i < blocks.length; i++) blocks[i].setAttribute('tabindex', '0');
}).observe(document.documentElement, { childList: true, subtree: true });
`;
