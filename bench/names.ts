/**
 * Reference lists for the synthetic patient register: common Indian given names (by gender),
 * surnames from several regions, and cities with their state and pincode prefix. The mix of
 * short and long names gives the prefix search realistic hit counts (e.g. "ram" matches Ram,
 * Ramesh, Ramya, Ramakrishnan, Raman, Ramaswamy).
 */

/** Whitespace-separated words as a list (names here hold no spaces). */
const words = (text: string): string[] => text.trim().split(/\s+/);

export const MALE_NAMES = words(`
  Aarav Abhishek Aditya Ajay Akash Amit Anand Anil Ankit Arjun Arun Ashok Balaji Bharat Chandan Deepak
  Dev Dinesh Ganesh Gaurav Gopal Hari Harish Hemant Imran Jagdish Jayesh Karan Karthik Kishore Krishna
  Kunal Lokesh Mahesh Manish Manoj Mohan Mukesh Murali Naveen Nikhil Nitin Pankaj Pradeep Prakash
  Pranav Prasad Rahul Rajesh Rajiv Rakesh Ram Ramakrishnan Raman Ramesh Ranjit Ravi Rohit Sachin Sai
  Sameer Sandeep Sanjay Santosh Satish Shankar Shiva Siddharth Srinivas Subhash Sudhir Sunil Suresh
  Tarun Uday Varun Venkatesh Vijay Vikram Vinod Vishal Vivek Yash Yogesh Zubair Farhan Gurpreet
  Harpreet Jatin Lalit
`);

export const FEMALE_NAMES = words(`
  Aarti Aishwarya Ananya Anita Anjali Ankita Anusha Aparna Archana Asha Bhavna Chitra Deepa Divya
  Durga Fatima Gayatri Geeta Hema Indira Isha Jaya Jyoti Kavita Kavya Kiran Lakshmi Lata Madhu Meena
  Meera Neha Nisha Padma Pooja Preeti Priya Radha Rani Rashmi Rekha Renu Ritu Roshni Ruchi Sadhana
  Sangeeta Sarita Savita Shalini Shanti Sharmila Shilpa Shreya Sneha Sonal Sudha Sunita Swati Tanvi
  Uma Usha Vandana Vidya Yamini Zainab Ramya Ramaa Harleen Nandini
`);

/** Names used by people of any gender (recorded as Other in a small share of rows). */
export const NEUTRAL_NAMES = words(`
  Kiran Jyoti Sai Shiva Anmol Noor Sagar Ravi
`);

export const SURNAMES = words(`
  Sharma Verma Gupta Agarwal Singh Kumar Yadav Mishra Pandey Tiwari Shukla Srivastava Chauhan Rathore
  Joshi Mehta Shah Patel Desai Trivedi Bhatt Kulkarni Deshpande Patil Jadhav Pawar Kale Gokhale Naik
  Shetty Hegde Rao Reddy Naidu Chowdary Iyer Iyengar Nair Menon Pillai Kurup Krishnan Raman Ramaswamy
  Ramachandran Subramanian Venkataraman Murthy Gowda Das Banerjee Chatterjee Mukherjee Ghosh Bose Sen
  Dutta Roy Saha Mondal Khan Ahmed Qureshi Siddiqui Ansari Sheikh Gill Sandhu Dhillon Grewal Kaur Bedi
  Malhotra Kapoor Khanna Arora Chopra Bajaj Sethi Saxena D'Souza Fernandes Pinto Rodrigues Mathew
  Thomas George Varghese Baruah Bora
`);

export const CITIES: readonly { city: string; state: string; pin: string }[] = [
  { city: 'Mumbai', state: 'Maharashtra', pin: '400' },
  { city: 'Pune', state: 'Maharashtra', pin: '411' },
  { city: 'Nagpur', state: 'Maharashtra', pin: '440' },
  { city: 'Delhi', state: 'Delhi', pin: '110' },
  { city: 'Bengaluru', state: 'Karnataka', pin: '560' },
  { city: 'Mysuru', state: 'Karnataka', pin: '570' },
  { city: 'Chennai', state: 'Tamil Nadu', pin: '600' },
  { city: 'Coimbatore', state: 'Tamil Nadu', pin: '641' },
  { city: 'Hyderabad', state: 'Telangana', pin: '500' },
  { city: 'Vijayawada', state: 'Andhra Pradesh', pin: '520' },
  { city: 'Kolkata', state: 'West Bengal', pin: '700' },
  { city: 'Ahmedabad', state: 'Gujarat', pin: '380' },
  { city: 'Surat', state: 'Gujarat', pin: '395' },
  { city: 'Jaipur', state: 'Rajasthan', pin: '302' },
  { city: 'Lucknow', state: 'Uttar Pradesh', pin: '226' },
  { city: 'Kanpur', state: 'Uttar Pradesh', pin: '208' },
  { city: 'Patna', state: 'Bihar', pin: '800' },
  { city: 'Bhopal', state: 'Madhya Pradesh', pin: '462' },
  { city: 'Kochi', state: 'Kerala', pin: '682' },
  { city: 'Thiruvananthapuram', state: 'Kerala', pin: '695' },
  { city: 'Chandigarh', state: 'Chandigarh', pin: '160' },
  { city: 'Ludhiana', state: 'Punjab', pin: '141' },
  { city: 'Guwahati', state: 'Assam', pin: '781' },
  { city: 'Bhubaneswar', state: 'Odisha', pin: '751' },
];

export const STREETS = [
  'MG Road',
  'Station Road',
  'Gandhi Nagar',
  'Nehru Street',
  'Temple Road',
  'Market Lane',
  'Park Avenue',
  'Lake View Colony',
];

export const EMAIL_DOMAINS = words(`
  gmail.com yahoo.co.in outlook.com rediffmail.com hotmail.com
`);

export const INSURERS = ['Star Health', 'HDFC ERGO', 'ICICI Lombard', 'New India Assurance', 'Niva Bupa'];

export const ALLERGIES = ['Penicillin', 'Sulfa drugs', 'Peanuts', 'Dust', 'Latex', 'Shellfish'];

export const HISTORIES = ['Type 2 diabetes', 'Hypertension', 'Hypothyroidism', 'Asthma', 'Anaemia', 'Dyslipidaemia'];
