// Which kubeconfig and context the view connects to: one precedence, the newer explicit
// choice winning (a pick here, or the Kubernetes extension switching), the setting beating
// what is only followed, and a context followed only from the kubeconfig it belongs to.
import * as assert from 'node:assert/strict';
import { ConnectionChoice, type ConnectSettings } from '../../../src/services/connectionChoice';

const none: ConnectSettings = { kubeconfig: '', context: '', namespaces: [] };

describe('ConnectionChoice', () => {
  it('uses the kubeconfig\'s current context and KUBECONFIG when nothing is chosen', () => {
    assert.deepEqual(new ConnectionChoice().request(none), { context: undefined, kubeconfigPath: undefined, namespaces: [] });
  });

  it('takes the settings, then a pick over them until the context setting changes', () => {
    const c = new ConnectionChoice();
    const settings = { kubeconfig: '/k/own', context: 'prod', namespaces: ['shop'] };
    assert.deepEqual(c.request(settings), { context: 'prod', kubeconfigPath: '/k/own', namespaces: ['shop'] });
    c.pick('staging');
    assert.equal(c.request(settings).context, 'staging', 'Switch Context wins over the setting');
    c.contextSettingChanged();
    assert.equal(c.request({ ...settings, context: 'dev' }).context, 'dev', 'a new context setting wins over the pick');
  });

  it('follows the Kubernetes extension\'s kubeconfig and context below our own settings', () => {
    const c = new ConnectionChoice();
    c.follow('/k/theirs', 'theirs-ctx');
    assert.deepEqual(c.request(none), { context: 'theirs-ctx', kubeconfigPath: '/k/theirs', namespaces: [] });
    assert.equal(c.request({ ...none, context: 'mine' }).context, 'mine', 'our context setting wins');
    assert.deepEqual(c.request({ ...none, kubeconfig: '/k/own' }), { context: undefined, kubeconfigPath: '/k/own', namespaces: [] }, 'our kubeconfig setting wins, and their context (of their file) is not used with it');
    assert.equal(c.kubeconfigPath(none), '/k/theirs');
    c.follow('/k/other');
    assert.equal(c.request(none).context, undefined, 'another file of theirs starts at its current context');
  });

  it('lets the newer of a pick and a switch in the Kubernetes extension win', () => {
    const c = new ConnectionChoice();
    c.pick('mine');
    c.follow('/k/theirs', 'theirs-ctx');
    assert.equal(c.request(none).context, 'theirs-ctx', 'their switch came later');
    c.pick('mine-again');
    assert.equal(c.request(none).context, 'mine-again');
    c.follow('/k/theirs');
    assert.equal(c.request(none).context, 'mine-again', 'a kubeconfig change alone keeps the pick');
  });
});
