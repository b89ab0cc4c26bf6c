// Origins: nginx, Apache and Caddy serving the site's files, and WordPress. Each web server's
// Markdown snippet is proven: test/origins/ loads it into the real server (Debian's package) in
// front of a world site's files and the scanner's content.markdown-negotiation check then passes.
// Docs: nginx.org/docs/http/ngx_http_map_module.html; httpd.apache.org/docs/2.4/mod/mod_rewrite.html;
// caddyserver.com/docs/caddyfile/matchers; developer.wordpress.org/reference/hooks/robots_txt/.
// The home page's Link header likewise (test/origins/link-header-snippets.test.ts): nginx.org/en/docs/http/
// ngx_http_headers_module.html, httpd.apache.org/docs/2.4/mod/mod_headers.html, caddyserver.com/docs/caddyfile/directives/header.
import { HOME_LINK } from './static-files.ts';
import { listed, type FixEntry, type OriginSnippet, type PlatformEntry } from './types.ts';

/** Each page's Markdown twin sits beside it: / → /index.md, /page → /page.md. */
const TWIN = 'Publish a Markdown twin of each page beside it (/ → /index.md, /page → /page.md), answer requests whose Accept names text/markdown with it as text/markdown, and send Vary: Accept on both answers.';

export const NGINX_MARKDOWN: OriginSnippet = {
  parts: {
    http: [
      'map $http_accept $twin {',
      '    default           html;',
      '    "~*text/markdown" md;',
      '}',
      'types { text/markdown md; }',
    ].join('\n'),
    server: [
      'location / {',
      '    add_header Vary Accept always;',
      '    try_files $uri.$twin $uri/index.$twin $uri $uri/ =404;',
      '}',
    ].join('\n'),
  },
};

export const APACHE_MARKDOWN: OriginSnippet = {
  parts: {
    directory: [
      'AddType text/markdown .md',
      'Header merge Vary Accept',
      'RewriteEngine On',
      'RewriteCond %{HTTP:Accept} text/markdown [NC]',
      'RewriteCond %{REQUEST_FILENAME}/index.md -f',
      'RewriteRule ^(.*?)/?$ $1/index.md [L]',
      'RewriteCond %{HTTP:Accept} text/markdown [NC]',
      'RewriteCond %{REQUEST_FILENAME}.md -f',
      'RewriteRule ^(.+)$ $1.md [L]',
    ].join('\n'),
  },
};

export const CADDY_MARKDOWN: OriginSnippet = {
  parts: {
    site: [
      'header Vary Accept',
      '@markdown {',
      '\theader Accept *text/markdown*',
      '\tfile {path}.md {path}/index.md',
      '}',
      'handle @markdown {',
      '\trewrite {file_match.relative}',
      '\theader Content-Type "text/markdown; charset=utf-8"',
      '\tfile_server',
      '}',
    ].join('\n'),
  },
};

/** The home page's Link header (the value of HOME_LINK), only on / (and /index.html, which the index serves). */
export const NGINX_LINK: OriginSnippet = {
  parts: {
    http: [
      'map $uri $home_link {',
      '    default       "";',
      `    /             '${HOME_LINK}';`,
      `    /index.html   '${HOME_LINK}';`,
      '}',
    ].join('\n'),
    server: 'add_header Link $home_link;',
  },
};

export const APACHE_LINK: OriginSnippet = {
  parts: { directory: `Header set Link "${HOME_LINK.replace(/"/g, '\\"')}" "expr=%{REQUEST_URI} in {'/', '/index.html'}"` },
};

export const CADDY_LINK: OriginSnippet = { parts: { site: `header / Link \`${HOME_LINK}\`` } };

const LINK_TEXT = 'Send a Link header on the home page that points agents at the machine-readable resources (the sitemap, llms.txt).';
const link = (setting: string, docUrl: string, s: OriginSnippet, where: Record<string, string>, note = '') => (): FixEntry => ({
  setting, text: `${LINK_TEXT}${note}`, docUrl,
  snippet: Object.entries(s.parts).map(([part, text]) => `${where[part]}\n${text}`).join('\n\n'),
});

const markdown = (setting: string, docUrl: string, s: OriginSnippet, where: Record<string, string>) => (): FixEntry => ({
  setting, text: TWIN, docUrl,
  snippet: Object.entries(s.parts).map(([part, text]) => `${where[part]}\n${text}`).join('\n\n'),
});

export const nginx: PlatformEntry = {
  id: 'nginx', name: 'nginx', role: 'origin', server: /^nginx\b/i,
  fixes: {
    'content.markdown-negotiation': markdown('nginx.conf: map $http_accept, try_files', 'https://nginx.org/docs/http/ngx_http_map_module.html', NGINX_MARKDOWN, { http: '# in the http {} block', server: '# in the server {} block' }),
    'discovery.link-headers': link('nginx.conf: map $uri, add_header Link', 'https://nginx.org/en/docs/http/ngx_http_headers_module.html', NGINX_LINK, { http: '# in the http {} block', server: '# in the server {} block' }, ' A location that has add_header lines of its own does not inherit this one: repeat it there.'),
  },
};

export const apache: PlatformEntry = {
  id: 'apache', name: 'Apache httpd', role: 'origin', server: /^Apache\b/i,
  fixes: {
    'content.markdown-negotiation': markdown('.htaccess or <Directory>: mod_rewrite, mod_headers', 'https://httpd.apache.org/docs/2.4/mod/mod_rewrite.html', APACHE_MARKDOWN, { directory: '# in .htaccess or the site\'s <Directory> (mod_rewrite and mod_headers enabled)' }),
    'discovery.link-headers': link('.htaccess or <Directory>: mod_headers (Header set … expr=)', 'https://httpd.apache.org/docs/2.4/mod/mod_headers.html', APACHE_LINK, { directory: '# in .htaccess or the site\'s <Directory> (mod_headers enabled)' }),
  },
};

export const caddy: PlatformEntry = {
  id: 'caddy', name: 'Caddy', role: 'origin', server: /^Caddy\b/i,
  fixes: {
    'content.markdown-negotiation': markdown('Caddyfile: a named matcher (header Accept, file) and handle', 'https://caddyserver.com/docs/caddyfile/matchers', CADDY_MARKDOWN, { site: '# in the site block, before file_server' }),
    'discovery.link-headers': link('Caddyfile: the header directive with the path matcher /', 'https://caddyserver.com/docs/caddyfile/directives/header', CADDY_LINK, { site: '# in the site block' }),
  },
};

const WP_ROBOTS = 'https://developer.wordpress.org/reference/hooks/robots_txt/';
const wpGroups = (agents: readonly string[]) => [
  "add_filter( 'robots_txt', function ( $output, $public ) {",
  ...agents.map((a) => `\t$output .= "\\nUser-agent: ${a}\\nAllow: /\\n";`),
  '\treturn $output;',
  '}, 10, 2 );',
].join('\n');

export const wordpress: PlatformEntry = {
  id: 'wordpress', name: 'WordPress', role: 'cms',
  fixes: {
    'policy.search-user-allowed': ({ agents }) => ({
      setting: "robots.txt through the 'robots_txt' filter (or your SEO plugin's robots.txt editor)",
      text: `WordPress writes robots.txt itself; add explicit Allow groups for ${listed(agents)} with the robots_txt filter (a must-use plugin or the theme's functions.php) rather than a file the server may not serve.`,
      docUrl: WP_ROBOTS, snippet: wpGroups(agents),
    }),
    'policy.training-preference': ({ agents }) => ({
      setting: "robots.txt through the 'robots_txt' filter",
      text: `Declare a training preference with groups for ${listed(agents)} through the robots_txt filter: Allow: / to permit training, Disallow: / to refuse it.`,
      docUrl: WP_ROBOTS, snippet: wpGroups(agents),
    }),
    'policy.ai-rules-explicit': ({ agents }) => ({
      setting: "robots.txt through the 'robots_txt' filter",
      text: `Give ${listed(agents)} groups of their own through the robots_txt filter, so each role has an explicit answer.`,
      docUrl: WP_ROBOTS, snippet: wpGroups(agents),
    }),
  },
};
