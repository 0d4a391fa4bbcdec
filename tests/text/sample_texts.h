// Paragraphs shared by the text tests: an English and a Chinese one of a
// few hundred words each, written for these tests.
#ifndef SIMDEX_TESTS_TEXT_SAMPLE_TEXTS_H_
#define SIMDEX_TESTS_TEXT_SAMPLE_TEXTS_H_

namespace simdex::testing {

inline constexpr const char* kEnglishParagraph =
    "Every night the crawler returns with millions of pages, and a surprising share of them "
    "are copies of something it has already stored. Some are exact mirrors that differ only "
    "in a navigation bar or a timestamp; others are press releases rewritten by a dozen news "
    "portals, each adding a sentence of its own and trimming another. Storing all of them "
    "wastes disk, slows the index and, worse, fills the result pages with the same story "
    "told ten times. The classic answer is to give every document a short fingerprint that "
    "changes only a little when the text changes a little. SimHash does this by splitting "
    "the text into features, usually words, giving each feature a weight, hashing it to "
    "sixty-four bits and adding the weight at every position where the hash has a one while "
    "subtracting it where the hash has a zero. The sign of each sum becomes one bit of the "
    "fingerprint. Because a small edit touches only a few features, most sums keep their "
    "sign, and two versions of an article end up a handful of bits apart, while unrelated "
    "articles differ in about half of their bits. A cryptographic digest such as MD5 behaves "
    "in the opposite way: a single changed comma scrambles the whole value, which is exactly "
    "what a checksum should do and exactly what a duplicate detector must avoid. Engineers "
    "who run such systems at scale report that a distance of three bits separates copies "
    "from originals well for long texts, although short messages such as microblog posts "
    "need a second, more careful comparison. The remaining problem is speed: with billions "
    "of stored fingerprints, comparing a new one against each of them is far too slow, so "
    "the fingerprints are split into blocks and kept in several sorted tables, arranged so "
    "that any two fingerprints within three bits share at least one block exactly. A lookup "
    "then probes each table for the matching block and checks only the few candidates it "
    "finds there, which keeps the cost of answering a query small even when the collection "
    "grows to many billions of pages gathered over months of patient crawling.";

inline constexpr const char* kChineseParagraph =
    "每天晚上，网络爬虫都会带回数以百万计的网页，其中相当一部分是已经收录过的内容的副本。"
    "有些是完全相同的镜像，只在导航栏或者时间上有所不同；另一些是被许多新闻网站转载的新闻稿，"
    "每个网站都会加上自己的一句话，再删掉另外一句。把这些网页全部保存下来不仅浪费磁盘空间，"
    "还会拖慢索引的速度，更糟糕的是，搜索结果页面里会反复出现同一个故事。"
    "经典的解决办法是为每一篇文档计算一个简短的指纹，文本变化很小的时候，指纹也只会变化很小。"
    "局部敏感哈希的做法是先把文本切分成特征，通常就是词语，然后给每个特征一个权重，"
    "把它哈希成六十四位的二进制数，在哈希值为一的位置加上权重，在为零的位置减去权重。"
    "每一位上累加结果的正负号就成为指纹的一位。因为一次小小的修改只会影响少数几个特征，"
    "大多数累加结果的符号保持不变，所以同一篇文章的两个版本只相差几位，"
    "而毫不相关的文章大约有一半的位不同。像消息摘要算法这样的密码学哈希恰好相反，"
    "改动一个标点符号就会让整个结果面目全非，这正是校验和应该具备的性质，"
    "却也正是重复检测必须避免的性质。在大规模系统中工作的工程师发现，"
    "对于较长的文本，三位的海明距离能够很好地区分副本和原文，"
    "而微博这样的短文本则需要再做一次更仔细的比较。剩下的问题是速度：面对数十亿个已经保存的指纹，"
    "把新指纹逐一比较实在太慢，于是人们把指纹切分成若干块，分别保存在几张排好序的表里，"
    "保证任何两个相差不超过三位的指纹至少有一块完全相同。查询时只需要在每张表中查找相同的块，"
    "再检查找到的少量候选，即使数据量增长到数十亿个网页，回答一次查询的代价仍然很小。";

}  // namespace simdex::testing

#endif  // SIMDEX_TESTS_TEXT_SAMPLE_TEXTS_H_
