import {test} from 'node:test';
import assert from 'node:assert/strict';
import {htmlToText} from '../../workers/web/html-text.js';

test('HTML to text: title first, scripts, styles and comments dropped, breaks kept, entities decoded as a browser does', () => {
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
	// `&amp` without its semicolon is one of the legacy references a browser still reads.
	assert.equal(text, ['# Menu', '', 'Coffee costs €3 <hot> 中文 \uFFFD &bogus; &', '', '- one', '- two bold', '', 'a | b', '1 | 2', '', '  keep\n    this', '', '[a cat]', '', 'x\ny', '', 'end'].join('\n'));
	for (const hidden of ['INJECTED', 'color', 'enable JS', 'comment', 'alert', 'BAD']) assert.ok(!text.includes(hidden), hidden);
});

test('HTML to text: broken markup never hangs and never loses the text around it', () => {
	const started = performance.now();
	// Read as one tag with 100,000 odd attributes, as a browser does: the text after it is kept.
	assert.equal(htmlToText(`before ${'<a "'.repeat(100_000)}> tail`).text, 'before tail');
	// Nested 300,000 deep without an end tag: no tree is built, so the work stays linear.
	assert.equal(htmlToText(`${'<b>'.repeat(300_000)}deep`).text, 'deep');
	const unclosed = htmlToText('<p>before<script>never closed');
	assert.equal(unclosed.text, 'before');
	assert.deepEqual(htmlToText('1 < 2 and 3 > 2'), {title: '', text: '1 < 2 and 3 > 2', complete: true});
	// A tag cut off by the end of the page is dropped, as a browser drops it; the text before it stays.
	assert.equal(htmlToText('<p>kept <b class="x').text, 'kept');
	assert.ok(performance.now() - started < 2000, 'linear in the input');
});

test('HTML to text: whitespace collapses across tags and references; <head> ends where the body starts', () => {
	assert.equal(htmlToText('<p>a <b> b </b> c&nbsp;&nbsp;d</p><ul><li> one </li></ul>').text, 'a b c  d\n\n- one');
	assert.deepEqual(htmlToText('<html><head><title>T</title><meta charset="utf-8"><p>body text'), {title: 'T', text: 'body text', complete: true});
	assert.deepEqual(htmlToText('<svg><title>Icon</title></svg><svg/><title>Page</title>after'), {title: 'Icon', text: 'after', complete: true});
	assert.equal(htmlToText('<img alt="a &amp; b" alt="second"><pre>  x  </pre>y').text, '[a & b]\n\n  x\n\ny');
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
