/**
 * The stored-XSS payloads, shared by tests/e2e/xss.spec.ts (names, descriptions, comments) and tests/e2e/notes.spec.ts
 * (pasted into a note as HTML and as text). Any execution sets window.__xss or opens a dialog; any injected element
 * carries a data-xss attribute.
 */

export const RUN = 'window.__xss=1';
export const PAYLOADS: string[] = [
  `<script data-xss>${RUN}</script>`,
  `<img data-xss src=x onerror="${RUN}">`,
  `<svg data-xss onload="${RUN}">`,
  `"><img data-xss src=x onerror=${RUN}>`,
  `'><svg data-xss/onload=${RUN}>`,
  `</textarea><img data-xss src=x onerror=${RUN}>`,
  `</title><img data-xss src=x onerror=${RUN}>`,
  `<iframe data-xss srcdoc="<script>parent.${RUN}</script>">`,
  `<iframe data-xss src="javascript:parent.${RUN}">`,
  `<a data-xss href="javascript:${RUN}">click</a>`,
  `javascript:${RUN}`,
  `<body data-xss onload=${RUN}>`,
  `<details data-xss open ontoggle=${RUN}>`,
  `<input data-xss autofocus onfocus=${RUN}>`,
  `<video data-xss><source onerror=${RUN}></video>`,
  `<audio data-xss src=x onerror=${RUN}>`,
  `<object data-xss data="javascript:${RUN}">`,
  `<embed data-xss src="javascript:${RUN}">`,
  `<math><mtext><img data-xss src=x onerror=${RUN}>`,
  `<style>@import'javascript:${RUN}'</style>`,
  `<marquee data-xss onstart=${RUN}>x</marquee>`,
  `<div data-xss style="background:url(javascript:${RUN})">`,
  `{{constructor.constructor('${RUN}')()}}`,
  // A template-literal injection, on purpose.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is the literal text
  '${alert(1)}',
  `<img data-xss src=x onerror=&#119;indow.__xss=1>`,
  `%3Cimg%20data-xss%20src%3Dx%20onerror%3D${RUN}%3E`,
  `&lt;img data-xss src=x onerror=${RUN}&gt;`,
  `<scr<script>ipt data-xss>${RUN}</scr</script>ipt>`,
  `<base data-xss href="javascript:/">`,
  `<form data-xss><button formaction="javascript:${RUN}">x</button></form>`,
  `<select data-xss autofocus onfocus=${RUN}>`,
  `<keygen data-xss autofocus onfocus=${RUN}>`,
  `"onmouseover="${RUN}" data-xss="`,
  `<template data-xss><img src=x onerror=${RUN}></template>`,
];
/**
 * Markdown's own ways in (descriptions and comments are Markdown): links and images to scripts and data, a title
 * breaking out of its quotes, reference links, autolinks, code blocks, HTML inside emphasis and link text.
 */
export const MARKDOWN: string[] = [
  `[md-link](javascript:${RUN})`,
  `[md-link](JaVaScRiPt:${RUN})`,
  `[md-link](&#106;avascript:${RUN})`,
  `[md-link](javascript&colon;${RUN})`,
  '[md-link](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)',
  `[md-link](vbscript:${RUN})`,
  `![md-image](javascript:${RUN})`,
  `![md-image](x" onerror="${RUN})`,
  `[md-title](https://example.org "t" onmouseover="${RUN}")`,
  `<javascript:${RUN}>`,
  `[md-ref]\n\n[md-ref]: javascript:${RUN}`,
  `\`\`\`html\n<script data-xss>${RUN}</script>\n\`\`\``,
  `*<img data-xss src=x onerror=${RUN}>*`,
  `[<img data-xss src=x onerror=${RUN}>](https://example.org)`,
  `[md-link](https://example.org/<img data-xss src=x onerror=${RUN}>)`,
  `# <svg data-xss onload=${RUN}>`,
  `- [ ] <input data-xss autofocus onfocus=${RUN}>`,
  `| a | b |\n|---|---|\n| <img data-xss src=x onerror=${RUN}> | [t](javascript:${RUN}) |`,
  '<@00000000-0000-4000-8000-000000000000>',
  `<@${'0'.repeat(8)}-0000-4000-8000-000000000000 onmouseover=${RUN}>`,
];
