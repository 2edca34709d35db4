// The documentation site. Its pages are the Markdown files of docs/ (docs/ARCHITECTURE.md, the
// maintainers' document, stays out of it); the API reference under docs/api/ is generated from the
// package's public entries by scripts/docs-api.ts before every build and is not committed. Dead
// internal links fail the build (`ignoreDeadLinks` stays off), which is the site's link check.
import { defineConfig } from 'vitepress'

export default defineConfig({
  title: 'vitest-causal-replay',
  description:
    'Test LLM agents as stochastic systems in Vitest: rate assertions with confidence intervals, and Causal Agent Replay to find the step that caused a failure.',
  srcExclude: ['ARCHITECTURE.md'],
  cleanUrls: true,
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/' },
      { text: 'Attribution', link: '/attribution/' },
      { text: 'Adapters', link: '/adapters/' },
      { text: 'Method', link: '/method/' },
      { text: 'API', link: '/api/' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Getting started', link: '/guide/' },
          { text: 'Writing an agent', link: '/guide/writing-an-agent' },
          { text: 'Without Vitest: check', link: '/guide/check' },
          { text: 'The library API', link: '/guide/library-api' },
        ],
      },
      {
        text: 'Matchers and claims',
        items: [
          { text: 'Setup and plugin options', link: '/matchers/setup' },
          { text: 'The matchers', link: '/matchers/' },
          { text: 'Options', link: '/matchers/options' },
          { text: 'Trajectory predicates', link: '/matchers/predicates' },
          { text: 'Judges', link: '/matchers/judges' },
          { text: 'Datasets', link: '/matchers/datasets' },
          { text: 'Seeds, errors, retries', link: '/matchers/seeds-errors-retries' },
        ],
      },
      {
        text: 'Reading the output',
        items: [
          { text: 'The failure message', link: '/output/' },
          { text: 'Reports and the reporter', link: '/output/reports' },
        ],
      },
      {
        text: 'Attribution',
        items: [
          { text: 'Overview', link: '/attribution/' },
          { text: 'Contrastive', link: '/attribution/contrastive' },
          { text: 'Binary search', link: '/attribution/binary-search' },
          { text: 'Shapley', link: '/attribution/shapley' },
          { text: 'Context', link: '/attribution/context' },
        ],
      },
      {
        text: 'Adapters',
        items: [
          { text: 'Overview', link: '/adapters/' },
          { text: 'Vercel AI SDK', link: '/adapters/ai-sdk' },
          { text: 'OpenAI Agents SDK', link: '/adapters/openai-agents' },
          { text: 'LangChain / LangGraph', link: '/adapters/langchain' },
        ],
      },
      { text: 'Cassettes', link: '/cassettes' },
      {
        text: 'CI',
        items: [
          { text: 'Gates in CI', link: '/ci/' },
          { text: 'Rate limits', link: '/ci/rate-limits' },
        ],
      },
      {
        text: 'The method',
        items: [
          { text: 'The method, briefly', link: '/method/' },
          { text: 'Statistics', link: '/method/statistics' },
          { text: 'Benchmarks', link: '/method/benchmarks' },
        ],
      },
      { text: 'CLI', link: '/cli' },
      { text: 'API reference', link: '/api/' },
    ],
    search: {
      provider: 'local',
      options: {
        miniSearch: {
          searchOptions: {
            // The API reference has a short section for every name, titled by the name, and MiniSearch
            // scores a title match on a short section highest: "calibrate" ranked nine API entries
            // above the Judges guide. Guides answer the question a reader searches with; the
            // reference entries still show, below them. VitePress sends this function to the browser
            // as its source text, so it reads nothing from this module.
            boostDocument: (id: string) => (id.startsWith('/api/') ? 0.05 : 1),
          },
        },
      },
    },
    outline: { level: [2, 3] },
  },
})
