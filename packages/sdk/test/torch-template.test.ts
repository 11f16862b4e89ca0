import { describe, expect, it } from 'vitest';
import { modelNewTemplate } from '../src/torch-template.js';

const reference = `import torch
import torch.nn as nn


class Model(nn.Module):
    """A Model that stays a Model in prose."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x):
        return torch.nn.functional.hardsigmoid(x)


class ModelHelper(nn.Module):
    pass


batch_size = 4096


def get_inputs():
    return [torch.randn(batch_size, 16)]


def get_init_inputs():
    return []
`;

describe('modelNewTemplate', () => {
  it('renames the class Model and its super() call to ModelNew and keeps the rest of the file', () => {
    const template = modelNewTemplate(reference);
    expect(template).toContain('class ModelNew(nn.Module):');
    expect(template).toContain('super(ModelNew, self).__init__()');
    expect(template).not.toMatch(/class Model\(/);
    expect(template).toContain('"""A Model that stays a Model in prose."""');
    expect(template).toContain('class ModelHelper(nn.Module):');
    expect(template).toContain('def get_inputs():');
    expect(template).toContain('def get_init_inputs():');
    expect(template.split('\n')).toHaveLength(reference.split('\n').length);
  });

  it('leaves a zero-argument super() alone and is idempotent', () => {
    const modern = 'class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n';
    expect(modelNewTemplate(modern)).toBe(
      'class ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n',
    );
    expect(modelNewTemplate(modelNewTemplate(reference))).toBe(modelNewTemplate(reference));
  });
});
