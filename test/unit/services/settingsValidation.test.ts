import * as assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, validateSettings } from '../../../src/services/settingsValidation';
import { EventCorrelator } from '../../../src/record/eventsCache';

describe('settings validation', () => {
  it('takes good values as they are', () => {
    const { settings, problems } = validateSettings({ 'correlator.aggregateIntervalSeconds': 30, 'correlator.qps': 0.5, namespaces: ['shop', 'kube-system'], sortOrder: 'warnings', storeCap: 500 });
    assert.deepEqual(problems, []);
    assert.equal(settings.correlator.maxIntervalInSeconds, 30);
    assert.equal(settings.correlator.qps, 0.5);
    assert.deepEqual(settings.namespaces, ['shop', 'kube-system']);
    assert.equal(settings.sortOrder, 'warnings');
  });

  it('replaces a fractional interval and a negative aggregate size by the defaults, naming the setting', () => {
    const { settings, problems } = validateSettings({ 'correlator.aggregateIntervalSeconds': 1.5, 'correlator.aggregateMaxEvents': -3 });
    assert.equal(settings.correlator.maxIntervalInSeconds, 600);
    assert.equal(settings.correlator.maxEvents, 10);
    assert.equal(problems.length, 2);
    assert.match(problems[0], /^kubernetesEvents\.correlator\.aggregateMaxEvents is -3; it must be a whole number of at least 2/);
    assert.match(problems[1], /^kubernetesEvents\.correlator\.aggregateIntervalSeconds is 1\.5; it must be a whole number of at least 1 .* Using 600\.$/);
    // What comes out can build client-go's correlator (1.5 made it throw before).
    assert.doesNotThrow(() => new EventCorrelator(settings.correlator));
  });

  it('refuses wrong types, a zero rate, bad namespace names and unknown sort orders', () => {
    const { settings, problems } = validateSettings({ storeCap: '5000', 'correlator.qps': 0, namespaces: ['ok', 'Not_OK', 7], sortOrder: 'random', 'sink.enabled': 'yes' });
    assert.equal(settings.storeCap, DEFAULT_SETTINGS.storeCap);
    assert.equal(settings.correlator.qps, DEFAULT_SETTINGS.correlator.qps);
    assert.deepEqual(settings.namespaces, ['ok']);
    assert.equal(settings.sortOrder, 'lastSeen');
    assert.equal(settings.sinkEnabled, false);
    assert.equal(problems.length, 5);
    assert.ok(problems.some((p) => p.includes('"Not_OK", 7')));
  });

  it('reads the manifest settings, and names a bad scope or exclude list', () => {
    assert.deepEqual(validateSettings({}).settings.manifests, DEFAULT_SETTINGS.manifests);
    const good = validateSettings({ 'manifests.scope': 'workspace', 'manifests.exclude': ['**/out/**'], 'manifests.warningWindowMinutes': 15, 'manifests.codeLens': false });
    assert.deepEqual(good.problems, []);
    assert.deepEqual([good.settings.manifests.scope, good.settings.manifests.exclude, good.settings.manifests.warningWindowMinutes, good.settings.manifests.codeLens], ['workspace', ['**/out/**'], 15, false]);
    const bad = validateSettings({ 'manifests.scope': 'everything', 'manifests.exclude': '**/out/**', 'manifests.warningWindowMinutes': 0 });
    assert.equal(bad.settings.manifests.scope, 'openEditors');
    assert.deepEqual(bad.settings.manifests.exclude, DEFAULT_SETTINGS.manifests.exclude);
    assert.equal(bad.settings.manifests.warningWindowMinutes, 60);
    assert.match(bad.problems.join('\n'), /kubernetesEvents\.manifests\.scope is "everything"; it must be "off", "openEditors" or "workspace"/);
    assert.match(bad.problems.join('\n'), /kubernetesEvents\.manifests\.exclude is "\*\*\/out\/\*\*"; it must be a list of glob patterns/);
    assert.equal(bad.problems.length, 3);
  });
});
