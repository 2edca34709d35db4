import { createHash } from 'node:crypto'

/**
 * The report's only script: the contrastive / Shapley tabs and the copy button of the replay
 * snippet. It reads nothing from the artifact (the page is rendered on the server side), so it is a
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
