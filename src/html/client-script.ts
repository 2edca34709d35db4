import { createHash } from 'node:crypto'

/**
 * The report's only script: the contrastive / Shapley tabs, the sortable per-case table of a
 * dataset claim and the copy button of the replay snippet. It reads nothing from the artifact (the page is rendered on the server side), so it is a
 * constant and the Content-Security-Policy can allow exactly it by hash.
 */
export const CLIENT_SCRIPT = `(() => {
  'use strict'
  const tabs = Array.from(document.querySelectorAll('[data-chart-tab]'))
  const select = (tab) => {
    for (const other of tabs) {
      const selected = other === tab
      other.setAttribute('aria-selected', String(selected))
      other.tabIndex = selected ? 0 : -1
      const panel = document.getElementById(other.getAttribute('aria-controls') || '')
      if (panel) panel.hidden = !selected
    }
    const chart = document.getElementById('attribution')
    if (chart) chart.dataset.view = tab.dataset.chartTab || ''
  }
  for (const tab of tabs) {
    tab.addEventListener('click', () => {
      if (!tab.disabled) select(tab)
    })
    tab.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
      const enabled = tabs.filter((candidate) => !candidate.disabled)
      const at = enabled.indexOf(tab)
      const next = enabled[(at + (event.key === 'ArrowRight' ? 1 : enabled.length - 1)) % enabled.length]
      if (next) {
        select(next)
        next.focus()
      }
    })
  }
  // A dataset's per-case table: a header's button sorts the rows by its column, again to reverse.
  for (const table of document.querySelectorAll('[data-sort-table]')) {
    const headers = Array.from(table.querySelectorAll('thead th'))
    headers.forEach((header, column) => {
      const button = header.querySelector('button')
      if (!button) return
      button.addEventListener('click', () => {
        const numeric = button.dataset.sortNumeric === 'true'
        const order = header.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending'
        for (const other of headers) other.setAttribute('aria-sort', 'none')
        header.setAttribute('aria-sort', order)
        const body = table.querySelector('tbody')
        if (!body) return
        const value = (row) => {
          const cell = row.children[column]
          const text = (cell && cell.getAttribute('data-sort-value')) || ''
          return numeric ? Number(text) : text
        }
        const rows = Array.from(body.children)
        rows.sort((a, b) => {
          const x = value(a)
          const y = value(b)
          const compared = numeric ? x - y : String(x).localeCompare(String(y))
          return order === 'ascending' ? compared : -compared
        })
        for (const row of rows) body.appendChild(row)
      })
    })
  }
  for (const button of document.querySelectorAll('[data-copy-target]')) {
    const label = button.textContent
    const done = (text) => {
      button.textContent = text
      setTimeout(() => { button.textContent = label }, 1600)
    }
    button.addEventListener('click', () => {
      const source = document.getElementById(button.getAttribute('data-copy-target') || '')
      if (!source) return
      const text = source.textContent || ''
      const selectSource = () => {
        const range = document.createRange()
        range.selectNodeContents(source)
        const selection = window.getSelection()
        if (selection) {
          selection.removeAllRanges()
          selection.addRange(range)
        }
        done('Selected: press Ctrl+C')
      }
      // The clipboard API needs a secure context and permission; a file:// page may have neither.
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(() => done('Copied'), selectSource)
      } else {
        selectSource()
      }
    })
  }
})()`

/** The CSP source expression that allows {@link CLIENT_SCRIPT} and no other script. */
export const CLIENT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(CLIENT_SCRIPT).digest('base64')}'`
