// The documentation site's configuration: VitePress's own dead-link check (which fails
// `npm run docs:build`, run by CI) stays on, the navigation leads to pages that exist (VitePress
// checks links in pages, not in the sidebar), and every page is reachable from the sidebar.
import { access, readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import config from '../docs/.vitepress/config.js'
import { ROOT } from '../scripts/public-entries.js'
import { documentedPages } from '../scripts/readme-output.js'

interface SidebarItem {
  text?: string
  link?: string
  items?: SidebarItem[]
}

/** Every link of the sidebar and the top navigation. */
function navigationLinks(): string[] {
  const theme = config.themeConfig as { nav: SidebarItem[]; sidebar: SidebarItem[] }
  const links: string[] = []
  const walk = (items: readonly SidebarItem[]) => {
    for (const item of items) {
      if (item.link !== undefined) links.push(item.link)
      if (item.items !== undefined) walk(item.items)
    }
  }
  walk(theme.nav)
  walk(theme.sidebar)
  return links
}

/** The Markdown page a site link (`/guide/`, `/guide/check`) is built from. */
function pageOf(link: string): string {
  return resolve(ROOT, 'docs', link.endsWith('/') ? `.${link}index.md` : `.${link}.md`)
}

describe('the documentation site', () => {
  it('fails its build on a dead link, and keeps the maintainers’ document out of it', () => {
    expect(config.ignoreDeadLinks ?? false).toBe(false)
    expect(config.srcExclude).toEqual(['ARCHITECTURE.md'])
  })

  it('navigates only to pages that exist (the API reference is generated at build time)', async () => {
    const missing: string[] = []
    for (const link of navigationLinks().filter((link) => !link.startsWith('/api/'))) {
      await access(pageOf(link)).catch(() => missing.push(link))
    }
    expect(missing).toEqual([])
  })

  it('lists every page in its sidebar', async () => {
    const listed = new Set(navigationLinks().map(pageOf))
    const pages = (await documentedPages()).filter((page) => page.startsWith(resolve(ROOT, 'docs')))
    const home = resolve(ROOT, 'docs/index.md')
    expect(pages.filter((page) => page !== home && !listed.has(page))).toEqual([])
  })

  it('is built in CI after the package', async () => {
    const ci = (await readFile(resolve(ROOT, '.ci/run'), 'utf8')).split('\n')
    expect(ci.indexOf('npm run docs:build')).toBeGreaterThan(ci.indexOf('npm run build'))
    expect(ci.indexOf('npm run build')).toBeGreaterThan(-1)
  })
})
