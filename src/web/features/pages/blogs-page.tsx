import { PAGES_TEXT } from "../../../contract/texts/pages";
import { BLOG_POSTS } from "../../../contract/texts/blog";
import { PageTitle } from "../../lib/page-title";

export default function BlogsPage() {
  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <PageTitle title={PAGES_TEXT.blogs.heading} />
      <h1 className="mb-8 text-center text-4xl font-bold">{PAGES_TEXT.blogs.heading}</h1>
      <div className="space-y-6">
        {BLOG_POSTS.map((post) => (
          <article key={post.id} id={post.id} className="card bg-base-100 border-base-300 border shadow-sm" data-testid="blog-card">
            <div className="card-body">
              <h2 className="card-title text-xl">{post.question}</h2>
              {post.answer.map((paragraph) => (
                <p key={paragraph.slice(0, 24)} className="text-base-content/90 leading-relaxed">
                  {paragraph}
                </p>
              ))}
            </div>
          </article>
        ))}
      </div>
    </div>
  );
}
