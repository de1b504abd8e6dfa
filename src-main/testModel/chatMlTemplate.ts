/** ChatML as Qwen2 instruct models ship it; llama.cpp and node-llama-cpp both recognize it. */
export const chatMlTemplate =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
