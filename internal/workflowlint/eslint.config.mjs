// The workflow lint (make workflow-lint): eslint-plugin-github-action's
// recommended rules, plus: every action pinned to a commit SHA, permissions
// and env named per job (none at the top), no reusable workflows from elsewhere.
import pluginGitHubAction from 'eslint-plugin-github-action'

const root = '../..' // the repository, from .cache/workflowlint

export default [
  ...pluginGitHubAction.configs.recommended.map((c) => ({ ...c, basePath: root })),
  {
    basePath: root,
    files: ['**/.github/workflows/*.y?(a)ml'],
    rules: {
      'github-action/prefer-step-uses-style': ['error', { commit: true, release: false, branch: false, allowRepository: true }],
      'github-action/no-top-level-permissions': 'error',
      'github-action/no-top-level-env': 'error',
      'github-action/no-external-job': 'error',
    },
  },
]
