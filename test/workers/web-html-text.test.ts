import {test} from 'node:test';
import assert from 'node:assert/strict';
import {htmlToText} from '../../workers/web/html-text.js';

test('HTML to text: title first, scripts, styles and comments dropped, breaks kept, entities decoded', () => {
	const html = `<!DOCTYPE html><html><head><title>Caf&eacute; &amp; Bar</title>
		<style>body { color: red }</style><script>document.write("<p>INJECTED</p>")</script></head>
		<body><!-- a <p>comment</p> -->
		<noscript>enable JS</noscript>
		<h1>Menu</h1><p>Coffee   costs
		&euro;3 &lt;hot&gt; &#x4E2D;&#25991; &#0; &bogus; &amp</p>
		<ul><li>one</li><li>two <b>bold</b></li></ul>
		<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>
		<pre>  keep
    this</pre><img alt="a cat" src="c.png"><p>x<br>y</p>
		<script type="module">alert("<\\/script>")</script><SCRIPT>BAD()</SCRIPT>end</body></html>`;
	const {title, text} = htmlToText(html);
	assert.equal(title, 'Café & Bar');
	assert.equal(text, ['# Menu', '', 'Coffee costs €3 <hot> 中文 \uFFFD &bogus; &amp', '', '- one', '- two bold', '', 'a | b', '1 | 2', '', '  keep\n    this', '', '[a cat]', '', 'x\ny', '', 'end'].join('\n'));
	for (const hidden of ['INJECTED', 'color', 'enable JS', 'comment', 'alert', 'BAD']) assert.ok(!text.includes(hidden), hidden);
});

test('HTML to text: broken markup never hangs and never loses the text around it', () => {
	const started = performance.now();
	const {text} = htmlToText(`${'<a "'.repeat(100_000)}tail`);
	assert.ok(text.endsWith('tail'));
	const unclosed = htmlToText('<p>before<script>never closed');
	assert.equal(unclosed.text, 'before');
	assert.deepEqual(htmlToText('1 < 2 and 3 > 2'), {title: '', text: '1 < 2 and 3 > 2', complete: true});
	assert.ok(performance.now() - started < 2000, 'linear in the input');
});

test('HTML to text stops converting past its limit and says it did not finish', () => {
	const html = `<title>T</title>${'<p>words and more words</p>'.repeat(10_000)}`;
	const whole = htmlToText(html);
	assert.equal(whole.complete, true);
	const cut = htmlToText(html, 1000);
	assert.equal(cut.complete, false);
	assert.equal(cut.title, 'T');
	assert.ok(cut.text.length > 1000 && cut.text.length < 1200, `${cut.text.length}`);
	assert.ok(whole.text.startsWith(cut.text));
});
